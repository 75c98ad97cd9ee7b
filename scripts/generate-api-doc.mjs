#!/usr/bin/env node
// Regenerates docs/api.md from the OpenAPI document the host serves (run after `npm run build`).
import { writeFileSync } from 'node:fs'
import { openApiDocument } from '../dist/docs/openapi-document.js'
import { renderApiMarkdown } from '../dist/docs/api-markdown.js'

writeFileSync(new URL('../docs/api.md', import.meta.url), renderApiMarkdown(await openApiDocument()))
