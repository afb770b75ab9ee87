import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../config';
import { rejection, TempDirectory } from './config-test-helpers';

// Parsers quote the text around a syntax error: a key written unquoted must not reach the log.
describe('config/loadConfig: a file that does not parse', () => {
  let directory: TempDirectory;
  beforeEach(() => (directory = new TempDirectory()));
  afterEach(() => directory.remove());

  const problemsOf = async (name: string, content: string): Promise<{ error: ConfigError; file: string }> => {
    const file = directory.write(name, content);
    const error = await rejection(loadConfig({ argv: [], env: {}, cwd: directory.path }));
    expect(error).to.be.instanceOf(ConfigError);
    return { error: error as ConfigError, file };
  };

  it('names a JSON error and its line without quoting the file (an unquoted key)', async () => {
    const { error, file } = await problemsOf('tts-gateway.config.json', '{\n  "providers": [{\n    "plugin": "openai",\n    "options": {"apiKey": sk-live-abcdef0123456789}\n  }]\n}\n');
    expect(error.message).to.include(file);
    expect(error.message).to.not.include('sk-live').and.not.include('apiKey').and.not.include('plugin');
    expect(error.problems).to.deep.equal(["Unexpected token 's' (line 4, column 27)"]);
  });

  it('says what is wrong in a JSON file and on which line, never only "JSON Error in <file>"', async () => {
    const { error } = await problemsOf('tts-gateway.config.json', '{\n  "database": {"url": "postgres://u:Pa55word@db/gateway"}\n  "server": {}\n}\n');
    expect(error.message).to.not.include('Pa55word');
    expect(error.problems).to.deep.equal(["Expected ',' or '}' after property value (line 3, column 3)"]);
  });

  // CI sets CI=true, and then parse-json colours its code frame: ANSI codes before each `> 3 |`.
  it('says the same in a terminal or under CI, where the parser colours its code frame', () => {
    directory.write('tts-gateway.config.json', '{\n  "database": {"url": "postgres://u:Pa55word@db/gateway"}\n  "server": {}\n}\n');
    const script = `require(${JSON.stringify(join(__dirname, '../../config'))}).loadConfig({ argv: [], env: {}, cwd: ${JSON.stringify(directory.path)} })
      .then(() => console.log('[]'), (error) => console.log(JSON.stringify(error.problems)));`;
    for (const colours of [{ FORCE_COLOR: '1' }, { CI: 'true' }]) {
      const output = execFileSync(process.execPath, ['-e', script], { env: { ...process.env, NO_COLOR: '', ...colours }, encoding: 'utf8' });
      expect(JSON.parse(output), JSON.stringify(colours)).to.deep.equal(["Expected ',' or '}' after property value (line 3, column 3)"]);
    }
  });

  it('names a byte order mark, which JSON.parse reads as an invisible stray character', async () => {
    const { error } = await problemsOf('tts-gateway.config.json', '\uFEFF{"server": {"port": 8081}}');
    expect(error.problems[0]).to.include('byte order mark');
  });

  it('quotes nothing of a package.json key that does not parse', async () => {
    const { error } = await problemsOf('package.json', '{"name": "x", "tts-gateway": {"metrics": {"token": tok-Secret-123456}}}');
    expect(error.message).to.not.include('tok-Secret').and.not.include('metrics');
  });

  it('names the file the search found when its JavaScript does not load', async () => {
    directory.write('package.json', '{"name": "my-deployment"}');
    const { error, file } = await problemsOf('tts-gateway.config.js', 'module.exports = { server: { port: 8081 } ');
    expect(error.file).to.equal(file);
    expect(error.message).to.include(file);
  });

  // cosmiconfig retries a failed import() with require(), whose "Cannot require() ES Module" hid the syntax error.
  it('names the syntax error of an .mjs file and where it is, quoting nothing of the file', async () => {
    const { error, file } = await problemsOf('tts-gateway.config.mjs', 'export default {\n  server: { port: 8081 \n  metrics: { token: "tok-Secret-123" },\n};\n');
    expect(error.message).to.include(file);
    expect(error.message).to.not.include('tok-Secret').and.not.include('metrics').and.not.include('require()');
    expect(error.problems).to.deep.equal(['SyntaxError: Unexpected identifier (line 3, column 3)']);
  });

  it('leaves out the token V8 names in a JavaScript syntax error (a value written unquoted)', async () => {
    const { error } = await problemsOf('tts-gateway.config.cjs', 'module.exports = {\n  metrics: { token: tok Secret99 },\n};\n');
    expect(error.message).to.not.include('Secret99');
    expect(error.problems).to.deep.equal(['SyntaxError: Unexpected identifier (line 2, column 25)']);
  });

  it('leaves out the name V8 could not find in an .mjs file (`sk-live-…` unquoted reads as a subtraction)', async () => {
    const { error } = await problemsOf('tts-gateway.config.mjs', 'export default {\n  metrics: { token: skLive123-abc },\n};\n');
    expect(error.message).to.not.include('skLive123');
    expect(error.problems).to.deep.equal(['ReferenceError: a name that is not defined (line 2, column 21): write text values in quotes']);
  });

  it('does not echo a YAML value that starts with * or ! (an alias or a tag to YAML), and says to quote it', async () => {
    for (const value of ['*Tok3nSecret99', '!Tok3nSecret99', '!!Tok3nSecret99']) {
      const { error } = await problemsOf('tts-gateway.config.yaml', `metrics:\n  token: ${value}\n`);
      expect(error.message, value).to.not.include('Tok3nSecret99');
      expect(error.problems.join('\n'), value).to.include('quote');
    }
  });
});
