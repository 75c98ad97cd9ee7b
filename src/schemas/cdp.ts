// POST /v1/cdp (docs/spec.md section 5): one raw CDP command, browser-level or on a tab. No anchor protection.
import { Type, type Static } from 'typebox'
import { CLOSED, OPEN, TabId } from './common.js'
import { ProfileName } from './fetch.js'

export const CdpBody = Type.Object({
  profile: Type.Optional(ProfileName),
  method: Type.String({ pattern: '^[A-Za-z]+\\.[A-Za-z]+$', maxLength: 128 }),
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  tab_id: Type.Optional(TabId)
}, CLOSED)
export type CdpBody = Static<typeof CdpBody>

/** Whatever Chromium answered, untouched. */
export const CdpResult = Type.Object({ result: Type.Unknown() }, OPEN)
