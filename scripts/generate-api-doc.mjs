#!/usr/bin/env node
// Regenerates docs/api.md from the OpenAPI document the host serves, the panel messages'
// table in docs/panel.md, the event table in docs/api-guide.md and the lifecycle table in
// docs/architecture.md from their schemas (run after `npm run build`).
import { readFileSync, writeFileSync } from 'node:fs'
import { openApiDocument } from '../dist/docs/openapi-document.js'
import { renderApiMarkdown } from '../dist/docs/api-markdown.js'
import { withPanelMessageTable } from '../dist/docs/panel-messages-markdown.js'
import { withEventTable, withTransitionTable } from '../dist/docs/events-markdown.js'

writeFileSync(new URL('../docs/api.md', import.meta.url), renderApiMarkdown(await openApiDocument()))
const panelDoc = new URL('../docs/panel.md', import.meta.url)
writeFileSync(panelDoc, withPanelMessageTable(readFileSync(panelDoc, 'utf8')))
const rewrite = (name, fn) => {
  const url = new URL(`../docs/${name}`, import.meta.url)
  writeFileSync(url, fn(readFileSync(url, 'utf8')))
}
rewrite('api-guide.md', withEventTable)
rewrite('architecture.md', withTransitionTable)
