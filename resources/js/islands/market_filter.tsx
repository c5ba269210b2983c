import { useEffect, useState } from 'preact/hooks'

interface Props {
  categories: Array<{ name: string; count: number }>
  total: number
}

const LABELS: Record<string, string> = { provider: 'From providers' }

function readUrl() {
  const params = new URLSearchParams(location.search)
  return { query: params.get('q') ?? '', category: params.get('category') ?? '' }
}

/**
 * Search by name and filter by category over the feed cards the server
 * rendered (`[data-feed-card]`, each with its searchable `data-name` and its
 * `data-category`). The choice is kept in the URL, so it can be shared.
 */
export default function MarketFilter({ categories, total }: Props) {
  const [{ query, category }, setFilter] = useState(readUrl)
  const [shown, setShown] = useState(total)

  useEffect(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean)
    let visible = 0
    for (const card of document.querySelectorAll<HTMLElement>('[data-feed-card]')) {
      const name = (card.dataset.name ?? '').toLowerCase()
      const match =
        (!category || card.dataset.category === category) &&
        words.every((word) => name.includes(word))
      card.hidden = !match
      if (match) visible++
    }
    setShown(visible)
    const empty = document.getElementById('no-match')
    if (empty) empty.hidden = visible > 0
    const params = new URLSearchParams()
    if (query) params.set('q', query)
    if (category) params.set('category', category)
    const search = params.size ? `?${params}` : ''
    history.replaceState(null, '', `${location.pathname}${search}${location.hash}`)
  }, [query, category])

  return (
    <div class="toolbar" role="search">
      <div class="field" style="margin:0">
        <label for="feed-search" class="visually-hidden">
          Search feeds by name
        </label>
        <input
          id="feed-search"
          type="search"
          placeholder="Search feeds by name, e.g. whale, gas, btc"
          value={query}
          autocomplete="off"
          onInput={(event) => setFilter({ query: event.currentTarget.value, category })}
        />
      </div>
      <div class="chips" role="group" aria-label="Filter by category">
        <button
          type="button"
          class="chip"
          aria-pressed={category === ''}
          onClick={() => setFilter({ query, category: '' })}
        >
          All<span class="count">{total}</span>
        </button>
        {categories.map(({ name, count }) => (
          <button
            type="button"
            class="chip"
            key={name}
            aria-pressed={category === name}
            onClick={() => setFilter({ query, category: category === name ? '' : name })}
          >
            {LABELS[name] ?? name}
            <span class="count">{count}</span>
          </button>
        ))}
      </div>
      <p class="visually-hidden" role="status" aria-live="polite">
        {shown} of {total} feeds shown
      </p>
    </div>
  )
}
