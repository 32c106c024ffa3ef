import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchServer {
  ports: Record<string, number>;
  path: string;
  /** The request paths the server answers for the benchmark (all of them answered by its bare routes too). */
  paths: string[];
  bytes: number;
  stop(): Promise<void>;
}

/**
 * Starts a benchmark server script in its own Node process (tsx as a loader, in that same process) and waits for
 * its JSON ready line. `stop` ends it with SIGTERM and waits for its exit (a CPU profile is written then).
 */
export function startBenchServer(script: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', fileURLToPath(new URL(`../${script}`, import.meta.url)), ...args],
    { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"ready"'));
      if (!line) return;
      const info = JSON.parse(line) as Omit<BenchServer, 'stop'>;
      resolve({
        ...info,
        paths: info.paths ?? [info.path],
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}:\n${output}`)));
  });
}
