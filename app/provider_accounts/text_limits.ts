/** The longest names, descriptions and feed slugs the API takes (the forms show the same). */
export const TEXT_LIMITS = { displayName: 80, description: 280, slug: 64 }
