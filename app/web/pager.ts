import { bootedConfig } from '#core/injectable_config'
import type { Page, PageRequest } from '#core/pagination'
import { WebConfig } from '#web/define_config'

const webConfig = bootedConfig(WebConfig)

/** A list's query values; empty ones are left out of its addresses. */
type ListQuery = Record<string, string | number | undefined>

/** Page numbers shown on each side of the current one (the first and last are always shown). */
const AROUND = 2

/** Page `page` of a list, as long as config/web.ts says (read per request: tests shorten it). */
export function listPage(page = 1): PageRequest {
  return { page, size: webConfig().pageSize }
}

/** The address of one view of a list: its path, its query values, and the list's anchor. */
export function listHref(path: string, query: ListQuery, anchor: string) {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value))
  }
  return `${path}${params.size ? `?${params}` : ''}#${anchor}`
}

type PagerItem = { gap: true } | { number: number; href: string; current: boolean }

/**
 * The links of a paged list (components/pager.edge): previous, next, the
 * first, the last and the pages around the current one, each keeping the
 * list's other query values (a search, a category) — and the words saying
 * which rows are shown.
 */
export function pager(page: Page<unknown>, path: string, query: ListQuery, anchor: string) {
  const at = (number: number) =>
    listHref(path, { ...query, page: number === 1 ? undefined : number }, anchor)
  const numbers: PagerItem[] = []
  for (let number = 1; number <= page.pages; number++) {
    const near = Math.abs(number - page.page) <= AROUND
    if (number === 1 || number === page.pages || near) {
      numbers.push({ number, href: at(number), current: number === page.page })
    } else if (!('gap' in (numbers.at(-1) ?? {}))) {
      numbers.push({ gap: true })
    }
  }
  const first = (page.page - 1) * page.size + 1
  const last = first + page.rows.length - 1
  const total = `${page.more ? 'more than ' : ''}${page.total.toLocaleString('en-US')}`
  return {
    pages: page.pages,
    previous: page.page > 1 ? at(Math.min(page.page - 1, page.pages)) : null,
    next: page.page < page.pages ? at(page.page + 1) : null,
    numbers,
    /** "25–48 of 60", or null when this page is empty. */
    shown: page.rows.length ? `${first}–${last} of ${total}` : null,
    /** How many rows the whole list has, in words ("60"), or null when it has none. */
    total: page.total > 0 ? total : null,
    /** The address went further than the list: say so, and link back. */
    pastTheEnd: page.page > page.pages,
    firstPage: at(1),
  }
}
