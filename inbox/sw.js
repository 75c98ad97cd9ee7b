// The inbox's service worker (docs/spec.md section 20): shows a notification per pushed handoff and
// opens (or focuses) the inbox when it is tapped. It only ever opens its own scope, /inbox/:
// a push carries no panel link, and a tap never goes anywhere else.
/* global self, clients */

self.addEventListener('push', (event) => {
  let data = {}
  try { data = event.data ? event.data.json() : {} } catch { data = { body: event.data ? event.data.text() : '' } }
  const title = data.title || 'afhttp: a person is needed'
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || '',
    tag: 'afhttp-inbox',
    renotify: true,
    data: { profile: data.profile, reason: data.reason }
  }))
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const inbox = self.registration.scope
  event.waitUntil(clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
    for (const w of windows) if (w.url.startsWith(inbox) && 'focus' in w) return w.focus()
    return clients.openWindow(inbox)
  }))
})
