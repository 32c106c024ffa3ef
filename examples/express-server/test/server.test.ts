import { fileURLToPath } from 'node:url';
import { exampleServerSuite } from '@siterest/examples-shared/testing';

exampleServerSuite('Express', fileURLToPath(new URL('../src/main.ts', import.meta.url)));
