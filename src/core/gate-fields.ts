// The fields a person fills in on a page that shows a challenge widget (docs/decisions.md,
// Recognition by what a gate is): a form beside the widget is the page's purpose, not a gate's,
// while the site's search box and what its layout keeps closed are chrome.
import { isChoice, isField, isButtonInput, isCaptchaAnswer, isHiddenInput, looksHidden, tagsOf, typeOf, type PageFacts, type Tag } from './page-facts.js'
import { closedOverlays, elements } from './markup-elements.js'
import { isWidget } from './gate-widgets.js'

// Beside a challenge widget, the fields a person types into, apart from the one a captcha asks
// for and the site's search box, which a site's header carries on every page, its gate included
// (Bing's check page). Without a widget every field counts (`fieldsOn`): a search box may be the
// page's purpose (no results for "captcha"); inside the widget's own form it is what the widget
// guards (a records lookup).
export function fieldsBesideWidget (f: PageFacts, widgetForm: Tag[], loader: boolean, asksForStep: boolean, widgetTag: (tag: Tag) => boolean): number {
  const closed = (asksForStep ? closedOverlayFields(f, loader) : 0) + searchFormFields(f, widgetTag)
  // A box to tick in the widget's own form (a poll's answers) is filled in beside it too, and so
  // are a list and a date there (a court's cause-list search: lists of courts and a date over its
  // image CAPTCHA; twenty-eighth review), unless the list offers the CAPTCHA's languages (AWS
  // WAF's) (eleventh review).
  const chosen = widgetForm.filter(tag => (isChoice(tag) && !(tag.name === 'select' && LANGUAGE_LIST.test(namesOf(tag)))) || (isOtherEntry(tag) && !isField(tag)))
  const all = Math.max(0, countFields(f.tags, isSearchBox) - closed) + countFields(widgetForm, tag => !isSearchBox(tag)) + chosen.length
  return all === 1 && unnamedAnswer(f) ? 0 : all
}

// The one field of a page that shows a CAPTCHA's image, in a form that holds the image or posts
// to a CAPTCHA's check, named nothing of the CAPTCHA's ("rep" under Yandex's "Введите текст с
// картинки", its form posting to /checkcaptcha: thirty-first review): where the image's answer
// goes. Not where the page names its answer box itself: then the other field is the form's own
// (an e-mail address under a newsletter's CAPTCHA).
function unnamedAnswer (f: PageFacts): boolean {
  return unnamedAnswerForm(f) !== undefined
}

function unnamedAnswerForm (f: PageFacts): Tag[] | undefined {
  if (f.tags.some(isCaptchaAnswer) || !f.tags.some(isCaptchaImage)) return undefined
  const form = formsHolding(f.shown, tag => isCaptchaImage(tag) || (tag.name === 'form' && /captcha/i.test(tag.attrs.action ?? '')))
  const fields = form.filter(isField)
  return fields.length === 1 && plainTextBox(fields[0]) ? form : undefined
}

// A CAPTCHA's characters go into a plain text box: an e-mail, password, phone or number field, or
// one the browser fills with who the person is ("Verify your e-mail" under a logo), asks for
// something else.
const IDENTITY_AUTOFILL = /email|user|pass|tel|name|address|one-time-code/i
function plainTextBox (tag: Tag): boolean {
  return tag.name === 'input' && (typeOf(tag) === '' || typeOf(tag) === 'text') && !IDENTITY_AUTOFILL.test(tag.attrs.autocomplete ?? '')
}

/**
 * Where the page takes a CAPTCHA's answer: the forms holding a box named for it, or else the form
 * holding the one unnamed box that answers its image (unnamedAnswer); undefined where neither is.
 * `unnamed`: that box counts as a field (`isField`), though it answers the CAPTCHA.
 */
export function captchaAnswerForms (f: PageFacts): { tags: Tag[], unnamed: boolean } | undefined {
  if (f.tags.some(isCaptchaAnswer)) return { tags: formsHolding(f.shown, isCaptchaAnswer), unnamed: false }
  const form = unnamedAnswerForm(f)
  return form && { tags: form, unnamed: true }
}

function isCaptchaImage (tag: Tag): boolean {
  return tag.name === 'img' && isWidget(tag, false)
}

// The other fields of the site's search form (Bing's box for an image's address, kept in its
// header's search form beside the query, while its own check asks below: twenty-eighth review)
// are the search's, chrome as its box is; not where the widget is in that form too.
function searchFormFields (f: PageFacts, widgetTag: (tag: Tag) => boolean): number {
  return elements(f.shown, 'form', true).map(([start, end]) => tagsOf(f.shown.slice(start, end)))
    .filter(tags => tags.some(tag => isField(tag) && isSearchBox(tag)) && !tags.some(widgetTag))
    .reduce((sum, tags) => sum + countFields(tags, isSearchBox), 0)
}

// A list of languages, by how it is named ("amzn-captcha-lang-selector", "Select language", "locale").
const LANGUAGE_LIST = /lang|locale/i
const namesOf = (tag: Tag): string => `${tag.attrs.name ?? ''} ${tag.attrs.id ?? ''} ${tag.attrs.class ?? ''} ${tag.attrs['aria-label'] ?? ''}`

/** The page's visible fields, every one. */
export function fieldsOn (f: PageFacts): number {
  return countFields(f.tags, () => false)
}

export function countFields (tags: Tag[], spared: (tag: Tag) => boolean): number {
  return tags.filter(tag => isField(tag) && !spared(tag)).length
}

/** A page keeps a few overlays for later; past these, a page of thousands is read no further. */
const CLOSED_OVERLAYS_READ = 20

// On a page that asks for the step in so many words, beside its widget, the fields of an overlay
// the page keeps closed (a feedback or newsletter form its stylesheet hides until a person opens
// it) are not on show. Only there: a sign-in or checkout page may hold its own form in an element
// named so ("login-modal", "checkout-drawer") beside the challenge frame reCAPTCHA adds to any
// page's end. An overlay that holds the widget is the step itself, and its fields count. Read in
// the markup as shown: not in comments, scripts or templates.
function closedOverlayFields (f: PageFacts, loader: boolean): number {
  return closedOverlays(f.shown, CLOSED_OVERLAYS_READ).map(([start, end]) => tagsOf(f.shown.slice(start, end)))
    .filter(tags => !tags.some(tag => isWidget(tag, loader)))
    .reduce((sum, tags) => sum + countFields(tags, isSearchBox), 0)
}

// The elements of the forms that hold an element `holds` picks out.
export function formsHolding (markup: string, holds: (tag: Tag) => boolean): Tag[] {
  return elements(markup, 'form', true).map(([start, end]) => tagsOf(markup.slice(start, end))).filter(tags => tags.some(holds)).flat()
}

// A search box by its type or role, or by how the site names it (name "q", or "search" in its
// name, id, class, placeholder or label: "search__input", "Search by brand").
const SEARCH_NAME = /(?:^|[^a-z])search(?:[^a-z]|$)/i

export function isSearchBox (tag: Tag): boolean {
  const { role, name, id, placeholder } = tag.attrs
  return typeOf(tag) === 'search' || role === 'searchbox' || name === 'q' ||
    SEARCH_NAME.test(`${name ?? ''} ${id ?? ''} ${tag.attrs.class ?? ''} ${placeholder ?? ''} ${tag.attrs['aria-label'] ?? ''}`)
}

// An entry beside a CAPTCHA's answer box that no field test counts: a date, a rich-text editor.
export function isOtherEntry (tag: Tag): boolean {
  if (looksHidden(tag)) return false
  if (tag.attrs.contenteditable !== undefined && tag.attrs.contenteditable !== 'false') return true
  return tag.name === 'input' && !isCaptchaAnswer(tag) && !isHiddenInput(tag) && !isButtonInput(tag) && typeOf(tag) !== 'reset'
}
