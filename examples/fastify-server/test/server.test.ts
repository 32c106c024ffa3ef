import { fileURLToPath } from 'node:url';
import { exampleServerSuite } from '@siterest/examples-shared/testing';

exampleServerSuite('Fastify', fileURLToPath(new URL('../src/main.ts', import.meta.url)));
