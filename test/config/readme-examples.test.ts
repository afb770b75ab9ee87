import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../config';
import { projectRoot } from '../support/paths';
import { TempDirectory } from './config-test-helpers';

/** The ```yaml blocks of a Markdown file, with the line each starts on. */
function yamlBlocks(markdown: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string }[] = [];
  let current: { line: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((line, index) => {
    if (!current && /^```ya?ml\s*$/.test(line)) current = { line: index + 1, lines: [] };
    else if (current && line.startsWith('```')) {
      blocks.push({ line: current.line, text: `${current.lines.join('\n')}\n` });
      current = undefined;
    } else current?.lines.push(line);
  });
  return blocks;
}

describe('README.md: its configuration examples', () => {
  const blocks = yamlBlocks(readFileSync(join(projectRoot, 'README.md'), 'utf8'));

  it('finds the examples', () => {
    expect(blocks.length).to.be.greaterThan(2);
  });

  for (const block of blocks) {
    it(`loads the yaml block at README.md line ${block.line}, with the variables it names set`, async () => {
      const env: Record<string, string> = {};
      for (const [, name] of block.text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) env[name] = 'set-by-the-test';
      const directory = new TempDirectory();
      try {
        directory.write('tts-gateway.config.yaml', block.text);
        await loadConfig({ argv: [], env, cwd: directory.path });
      } finally {
        directory.remove();
      }
    });
  }
});
