/** A command-line tool's refusal: its message is printed as it is (no stack), then it exits with `exitCode`. */
export class Refusal extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
