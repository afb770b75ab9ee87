import { expect } from 'chai';
import { TurnoverTable } from '../../../core';

describe('core/objects: TurnoverTable', () => {
  it('keeps, finds, counts and removes entries by number and by string', () => {
    const table = new TurnoverTable<{ name: string }>();
    const first = { name: 'first' };
    table.set(1, first);
    table.set('key', { name: 'second' });
    expect(table.size).to.equal(2);
    expect(table.get(1)).to.equal(first);
    expect(table.has('key')).to.equal(true);
    expect(table.get(2)).to.equal(undefined);
    expect(table.delete(1)).to.equal(true);
    expect(table.delete(1)).to.equal(false);
    expect(table.has(1)).to.equal(false);
    expect(table.size).to.equal(1);
  });

  it('replaces the value of a key it has without counting it twice', () => {
    const table = new TurnoverTable<string>();
    table.set('a', 'old');
    table.set('a', 'new');
    expect(table.size).to.equal(1);
    expect(table.get('a')).to.equal('new');
  });

  it('takes any string as a key, the names of Object.prototype included', () => {
    const table = new TurnoverTable<number>();
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(table.has(key), key).to.equal(false);
      expect(table.get(key), key).to.equal(undefined);
      table.set(key, key.length);
    }
    expect(table.size).to.equal(4);
    expect(table.get('__proto__')).to.equal(9);
    expect(table.values()).to.have.members([9, 11, 8, 14]);
  });

  it('lists its values as they are when asked, so that callers may remove entries meanwhile', () => {
    const table = new TurnoverTable<number>();
    for (let key = 0; key < 5; key += 1) table.set(key, key * 10);
    const seen: number[] = [];
    for (const value of table.values()) {
      seen.push(value);
      table.delete(value / 10);
    }
    expect(seen).to.have.members([0, 10, 20, 30, 40]);
    expect(table.size).to.equal(0);
  });

  it('is empty after clear, and counts from zero again', () => {
    const table = new TurnoverTable<string>();
    table.set(1, 'one');
    table.set(2, 'two');
    table.clear();
    expect(table.size).to.equal(0);
    expect(table.values()).to.deep.equal([]);
    table.set(1, 'again');
    expect(table.size).to.equal(1);
  });

  it('stays right through many entries coming and going', () => {
    const table = new TurnoverTable<number>();
    const live = new Set<number>();
    for (let id = 0; id < 10_000; id += 1) {
      table.set(id, id);
      live.add(id);
      if (id % 3 !== 0) {
        table.delete(id - 1);
        live.delete(id - 1);
      }
    }
    expect(table.size).to.equal(live.size);
    expect(table.values().sort((a, b) => a - b)).to.deep.equal([...live].sort((a, b) => a - b));
  });
});
