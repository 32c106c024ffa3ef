#!/usr/bin/env node
// The siterest-migrate command. It lives outside dist/ so that package managers can link it before a build.
import('../dist/cli.js').catch((error) => {
  console.error(`siterest-migrate: could not load the built CLI (${error.message}). In the siterest repository, run \`pnpm build\` first.`);
  process.exitCode = 1;
});
