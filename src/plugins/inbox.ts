// Wiring only: the operator inbox (OperatorInbox, src/inbox/operator-inbox.ts) gets the app's
// clock, log, tabs, handoffs, events and panel; this plugin checks the operator token, sets up
// Web Push (its key pair and subscriptions in the profiles directory) and decorates the app.
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { ConfigError, publicPathPrefix } from '../config.js'
import { tokenMatches } from '../store/token.js'
import { boundedTitle } from '../browser/bounded-title.js'
import { DisabledInbox, OperatorInbox, pushSubject, type InboxPush, type InboxService } from '../inbox/operator-inbox.js'
import { PushSubscriptions } from '../inbox/push-store.js'
import { PushSender } from '../inbox/push-sender.js'
import { loadOrCreateVapid } from '../inbox/vapid.js'

export { pushSubject, type InboxService } from '../inbox/operator-inbox.js'

declare module 'fastify' {
  interface FastifyInstance {
    inbox: InboxService
  }
}

/** The key pair (made on first start) and the stored subscriptions; none when they cannot be read or written. */
async function setUpPush (app: FastifyInstance): Promise<InboxPush> {
  try {
    const loaded = await loadOrCreateVapid(app.config.profilesDir)
    if (loaded.created) app.log.info({ file: loaded.file }, 'generated the Web Push (VAPID) key pair for the operator inbox')
    const subscriptions = new PushSubscriptions(app.config.profilesDir)
    await subscriptions.load()
    const push = new PushSender(subscriptions, loaded.keys, pushSubject(app.config), app.log.child({ part: 'push' }), app.config.urlDeny)
    return { vapid: loaded.keys, subscriptions, push }
  } catch (err) {
    // The inbox still lists and takes handoffs; only notifications are off, and the log says why.
    app.log.error({ err }, 'Web Push is off: its key pair or subscriptions could not be read or written')
    return {}
  }
}

async function inboxPlugin (app: FastifyInstance, opts: { apiToken: string }): Promise<void> {
  const operatorToken = app.config.operatorToken
  if (operatorToken === undefined) {
    app.decorate('inbox', new DisabledInbox(app.clock))
    return
  }
  // The configured API token was compared at load; a generated one can only be compared here.
  if (tokenMatches(operatorToken, opts.apiToken)) throw new ConfigError('AFHTTP_OPERATOR_TOKEN', 'must differ from the API token (AFHTTP_TOKEN or .afhttp-token)')
  const push = await setUpPush(app)
  const inbox = new OperatorInbox({
    clock: app.clock,
    log: app.log,
    tabs: app.tabs,
    handoffs: { current: (id) => app.handoffs.current(id), onChange: (fn) => { app.handoffs.onChange(fn) } },
    events: app.events,
    viewers: (tabId) => app.panel.find(tabId)?.viewers.size ?? 0,
    title: (page) => boundedTitle(page, { blocked: true }),
    inboxUrl: () => `${app.config.publicUrl}/inbox/`
  }, push)
  inbox.start()
  app.addHook('onClose', () => inbox.close())
  app.decorate('inbox', inbox)
  app.log.info({ path: `${publicPathPrefix(app.config)}/inbox/`, web_push: push.vapid !== undefined }, 'operator inbox enabled')
}

export default fp(inboxPlugin, { name: 'afhttp-inbox', dependencies: ['afhttp-events', 'afhttp-handoffs', 'afhttp-panel'] })
