#!/usr/bin/env node
import 'reflect-metadata';
import { runCli } from './cli/run-cli';

/** The `tts-gateway` command (package.json "bin"): the server and the operator's commands. */
runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() }).then(
  (result) => {
    if (result !== 'serving') process.exitCode = result;
  },
  (error: unknown) => {
    process.stderr.write(`tts-gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
