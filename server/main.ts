import 'reflect-metadata';
import { runGateway } from './run-gateway';

/** `npm start`: the gateway in the foreground (the CLI's `serve` does the same). */
void runGateway({ argv: process.argv.slice(2), env: process.env, stderr: process.stderr, exit: (code) => process.exit(code) });
