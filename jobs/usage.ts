/** Bad command-line usage: exit code 2 with a one-line reason. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
