/** Closes the server and the site on SIGINT/SIGTERM so connections and stores end cleanly. */
export function runUntilSignalled(close: () => Promise<void>): void {
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`error while stopping on ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

/** Runs a server's start-up, turning a failure into one clear line and exit code 1 instead of a stack trace. */
export function startServer(start: () => Promise<void>): void {
  start().catch((error: unknown) => {
    console.error(`siterest example could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
