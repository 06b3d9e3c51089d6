import { ConfigError } from './config.js';

/** A command-line tool's refusal: its message is printed as it is (no stack), then it exits with `exitCode`. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** How a command-line tool ends on an error: a refusal or a configuration error as one line, anything else with its stack. */
export function exitOnCliError(error: unknown): never {
  if (error instanceof Refusal) {
    console.error(error.message);
    process.exit(error.exitCode);
  }
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
