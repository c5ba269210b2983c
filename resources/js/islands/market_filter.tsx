import { useEffect } from 'preact/hooks'

interface Props {
  /** The search form (a plain GET form). */
  form: string
  /** The parts of the page a new view replaces: the category links, the count, the results. */
  parts: string[]
}

/** Typing pauses this long before the search runs. */
const TYPING_MS = 250

/**
 * The server searches, filters and pages the marketplace; without JavaScript
 * the form submits and the category and page links navigate. This island
 * makes that live: typing searches as you go, and those links load in place.
 * Each time it fetches the page the server renders for the new address,
 * swaps in its parts and puts the address in the URL bar, so a reload or a
 * shared link shows the same view.
 */
export default function MarketFilter({ form: formId, parts }: Props) {
  useEffect(() => {
    const form = document.getElementById(formId) as HTMLFormElement
    const search = form.elements.namedItem('q') as HTMLInputElement
    let latest: AbortController | undefined
    let typing: ReturnType<typeof setTimeout> | undefined

    async function show(url: URL, history: 'push' | 'replace' | 'none') {
      latest?.abort()
      const request = (latest = new AbortController())
      let response: Response
      try {
        response = await fetch(url, { signal: request.signal, headers: { accept: 'text/html' } })
      } catch (error) {
        if (request.signal.aborted) return
        throw error
      }
      // A refused address (422) or a failure is a page in words: show it as such.
      if (!response.ok) return location.assign(url)
      const page = new DOMParser().parseFromString(await response.text(), 'text/html')
      if (request.signal.aborted) return
      for (const id of parts) {
        const fresh = page.getElementById(id)
        if (fresh) document.getElementById(id)?.replaceChildren(...fresh.childNodes)
      }
      if (history === 'push') window.history.pushState(null, '', url)
      if (history === 'replace') window.history.replaceState(null, '', url)
    }

    /** The current view with another search, from its first page. */
    function searched() {
      const url = new URL(location.href)
      url.searchParams.delete('page')
      if (search.value.trim()) url.searchParams.set('q', search.value.trim())
      else url.searchParams.delete('q')
      return url
    }

    const onInput = () => {
      clearTimeout(typing)
      typing = setTimeout(() => show(searched(), 'replace'), TYPING_MS)
    }
    const onSubmit = (event: SubmitEvent) => {
      event.preventDefault()
      clearTimeout(typing)
      show(searched(), 'replace')
    }
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element).closest<HTMLAnchorElement>('a[href]')
      const inPart = link && parts.some((id) => document.getElementById(id)?.contains(link))
      if (!inPart || link.pathname !== location.pathname) return
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return
      event.preventDefault()
      show(new URL(link.href), 'push').then(() => {
        if (link.hash) document.querySelector(link.hash)?.scrollIntoView({ block: 'start' })
      })
    }
    const onBack = () => {
      search.value = new URL(location.href).searchParams.get('q') ?? ''
      show(new URL(location.href), 'none')
    }
    search.addEventListener('input', onInput)
    form.addEventListener('submit', onSubmit)
    document.addEventListener('click', onClick)
    window.addEventListener('popstate', onBack)
    return () => {
      search.removeEventListener('input', onInput)
      form.removeEventListener('submit', onSubmit)
      document.removeEventListener('click', onClick)
      window.removeEventListener('popstate', onBack)
    }
  }, [formId, parts])

  return null
}
