import type { Command } from './command.js'
import { serveCommand } from './serve.js'
import { fetchCommand } from './fetch.js'
import { healthCommand } from './health.js'
import { capabilitiesCommand } from './capabilities.js'
import { profilesCommand } from './profiles.js'
import { tabsCommand } from './tabs.js'
import { closeCommand } from './close.js'
import { handoffCommand } from './handoff.js'
import { finishCommand } from './finish.js'
import { cdpCommand } from './cdp.js'
import { eventsCommand } from './events.js'
import { mcpCommand } from './mcp.js'
import { auditCommand } from './audit.js'

/** Every subcommand, in the order `afhttp --help` lists them. */
export const COMMANDS: readonly Command[] = [
  serveCommand, fetchCommand, healthCommand, capabilitiesCommand, profilesCommand,
  tabsCommand, closeCommand, handoffCommand, finishCommand, cdpCommand, eventsCommand, mcpCommand, auditCommand
]

export function findCommand (name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name)
}
