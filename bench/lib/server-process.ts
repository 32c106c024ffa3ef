import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

export interface BenchServer {
  ports: Record<string, number>;
  path: string;
  bytes: number;
  stop(): void;
}

/** Starts a benchmark server script in its own process and waits for its JSON ready line. */
export function startBenchServer(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<BenchServer> {
  const child: ChildProcess = spawn(TSX, ['--conditions=source', fileURLToPath(new URL(`../${script}`, import.meta.url)), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"ready"'));
      if (!line) return;
      const info = JSON.parse(line) as Omit<BenchServer, 'stop'>;
      resolve({ ...info, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}:\n${output}`)));
  });
}
