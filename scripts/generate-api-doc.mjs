#!/usr/bin/env node
// Regenerates docs/api.md from the OpenAPI document the host serves, and the panel messages'
// table in docs/panel.md from their schemas (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs'
import { openApiDocument } from '../dist/docs/openapi-document.js'
import { renderApiMarkdown } from '../dist/docs/api-markdown.js'
import { withPanelMessageTable } from '../dist/docs/panel-messages-markdown.js'

writeFileSync(new URL('../docs/api.md', import.meta.url), renderApiMarkdown(await openApiDocument()))
const panelDoc = new URL('../docs/panel.md', import.meta.url)
writeFileSync(panelDoc, withPanelMessageTable(readFileSync(panelDoc, 'utf8')))
