// The panel document's first script (docs/panel.md "The first frame"): a few hundred bytes that run
// before the stylesheet and the bundle have loaded, and open the panel's socket so the host's live
// checks, the join and the first frame come while the rest of the panel loads. The bundle takes
// this socket (connection.ts); without it, the bundle opens one itself.
import { HeldSocket, panelSocketUrl } from './held-socket.js'

const tab = new URLSearchParams(location.search).get('tab')
if (tab) window.afhttpEarlySocket = new HeldSocket(panelSocketUrl(tab))
