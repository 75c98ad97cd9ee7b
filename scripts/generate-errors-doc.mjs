#!/usr/bin/env node
// Regenerates docs/errors.md from the one errors table (run after `npm run build`).
import { writeFileSync } from 'node:fs'
import { ERRORS } from '../dist/errors.js'

const rows = Object.entries(ERRORS).map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.retryable ? 'yes' : 'no'} | ${e.message} |`)
const doc = `# Error codes

Generated from \`src/errors.ts\` by \`npm run docs:errors\`; do not edit by hand.

Every failure answers with one envelope:

\`\`\`json
{"error": {"code": "tab_not_found", "message": "…", "retryable": false, "details": {}}}
\`\`\`

\`details.field\` names the offending field of an \`invalid_request\`. A failed fetch that left a tab
open also carries \`trace.retained_tab_id\` beside \`error\`.

| code | HTTP status | retryable | default message |
|---|---|---|---|
${rows.join('\n')}
`
writeFileSync(new URL('../docs/errors.md', import.meta.url), doc)
