import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BenchServer {
  ports: Record<string, number>;
  path: string;
  /** The request paths the server answers for the benchmark (all of them answered by its bare routes too). */
  paths: string[];
  bytes: number;
  /** The events server's in-process CPU time per uncached list, in µs (see loopMicros in events-server.ts). */
  inProcessMicros?: number;
  pid: number | undefined;
  /** CPU time the server process has used so far, in milliseconds (user + system; null where /proc is not). */
  cpuMs(): number | null;
  stop(): Promise<void>;
}

/**
 * Starts a benchmark server script in its own Node process (tsx as a loader, in that same process) and waits for
 * its JSON ready line. The script imports the built packages (their `dist`, as an app would), not their sources. `stop` ends it with SIGTERM and waits for its exit (a CPU profile is written then).
 */
export function startBenchServer(script: string, args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(`../${script}`, import.meta.url)), ...args],
    { cwd: ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"ready"'));
      if (!line) return;
      const info = JSON.parse(line) as Omit<BenchServer, 'stop' | 'cpuMs' | 'pid'>;
      resolve({
        ...info,
        paths: info.paths ?? [info.path],
        pid: child.pid,
        cpuMs: () => processCpuMs(child.pid),
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`benchmark server exited with ${code}:\n${output}`)));
  });
}

/** User plus system CPU time of a process in milliseconds, from /proc (Linux); null elsewhere. */
function processCpuMs(pid: number | undefined): number | null {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}
