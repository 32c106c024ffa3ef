import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** Debian's nginx and Apache, when installed (`apt-get install nginx-light apache2`). */
export const NGINX = has('nginx') ? 'nginx' : null;
export const APACHE = has('apache2') ? 'apache2' : null;

function inTempDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'siterest-conf-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `nginx -t` on a configuration that includes the exported file in its http block. */
export function nginxAccepts(exported: string): { ok: boolean; output: string } {
  return inTempDir((dir) => {
    writeFileSync(join(dir, 'redirects.conf'), exported);
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `${name}_temp_path ${dir};`).join(' ');
    writeFileSync(
      join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  ${temp}\n  include ${dir}/redirects.conf;\n}\n`,
    );
    const run = spawnSync(NGINX!, ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  });
}

/** `apache2 -t` on a configuration that includes the exported file where an .htaccess would apply. */
export function apacheAccepts(exported: string): { ok: boolean; output: string } {
  return inTempDir((dir) => {
    writeFileSync(join(dir, 'redirects.htaccess'), exported);
    const modules = '/usr/lib/apache2/modules';
    writeFileSync(
      join(dir, 'httpd.conf'),
      [
        'ServerRoot /etc/apache2',
        'ServerName localhost',
        `PidFile ${dir}/httpd.pid`,
        `ErrorLog ${dir}/error.log`,
        `Mutex file:${dir} default`,
        `LoadModule mpm_prefork_module ${modules}/mod_mpm_prefork.so`,
        `LoadModule authz_core_module ${modules}/mod_authz_core.so`,
        `LoadModule rewrite_module ${modules}/mod_rewrite.so`,
        'Listen 127.0.0.1:45099',
        `<Directory ${dir}>`,
        'RewriteEngine On',
        `Include ${dir}/redirects.htaccess`,
        '</Directory>',
        '',
      ].join('\n'),
    );
    const run = spawnSync(APACHE!, ['-t', '-f', join(dir, 'httpd.conf')], { encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  });
}
