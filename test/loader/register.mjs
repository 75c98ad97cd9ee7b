// The tests' TypeScript loader (docs/decisions.md, issue 23: the suite's own overhead). tap's own
// loader (ts-node) loads the whole TypeScript compiler into every test process to read
// tsconfig.json, about a second of CPU per file before the first test runs; the tests need only
// their types stripped, which SWC does file by file. Type checking is `npm run typecheck`'s job.
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url)
