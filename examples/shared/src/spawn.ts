import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface StartedExample {
  apiUrl: string;
  password: string | null;
  output: () => string;
  stop(): Promise<number | null>;
}

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** Starts an example server as `pnpm start` does and waits for its banner (tests of the start command). */
export function startExample(main: string, env: Record<string, string>): Promise<StartedExample> {
  // The example gets a database only when the test names one (never the suite's own DATABASE_URL).
  const { DATABASE_URL: _suiteDatabase, ...inherited } = process.env;
  const child = spawn(TSX, ['--conditions=source', main], {
    env: { ...inherited, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`example did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (\S+)/.exec(output)?.[1];
      const hintDone = /try: curl/.test(output);
      if (url && hintDone) {
        clearTimeout(timer);
        resolve({
          apiUrl: url,
          password: /shown once\): (\S+)/.exec(output)?.[1] ?? null,
          output: () => output,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`example exited with ${code}:\n${output}`));
    });
  });
}
