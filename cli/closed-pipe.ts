/**
 * Ends the process quietly with exit code 0 when the reader of an output stream goes away
 * (`svc checks list | head -1`, or `2>&1 | head`): the output was wanted only in part, which is not a failure.
 * Any other write error is left to Node's default handling.
 */
export function exitQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
