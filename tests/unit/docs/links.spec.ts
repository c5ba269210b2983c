import { existsSync } from 'node:fs'
import { glob, readFile } from 'node:fs/promises'
import { dirname, join, normalize } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'

/** Markdown without its code blocks, where `# x` is no heading. */
function withoutCodeBlocks(markdown: string) {
  return markdown.replace(/```[\s\S]*?```/g, '')
}

/** …and without inline code either, where `[x](y)` is no link. */
function prose(markdown: string) {
  return withoutCodeBlocks(markdown).replace(/`[^`\n]*`/g, '')
}

/**
 * A heading's anchor as GitHub makes it: its text (code as its characters,
 * entities read, links by their words), lower case, without punctuation but `-` and `_`, spaces as
 * `-`; a repeated one gets `-1`, `-2`, ….
 */
function anchorsOf(markdown: string) {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of withoutCodeBlocks(markdown).matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/&(lt|gt|amp);/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

test.group('Documentation links', () => {
  test('every relative link of the README and docs/ reaches a file, and its anchor a heading', async ({
    assert,
  }) => {
    const files = ['README.md']
    for await (const file of glob(['docs/*.md', 'packages/*/README.md'], { cwd: app.makePath() })) {
      files.push(file)
    }
    const broken: string[] = []
    for (const file of files) {
      const markdown = await readFile(app.makePath(file), 'utf8')
      for (const [, target] of prose(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue
        const [path, anchor] = target.split('#')
        const linked = path ? normalize(join(dirname(file), path)) : file
        if (!existsSync(app.makePath(linked))) {
          broken.push(`${file}: ${target} (no such file)`)
        } else if (anchor && linked.endsWith('.md')) {
          const anchors = anchorsOf(await readFile(app.makePath(linked), 'utf8'))
          if (!anchors.has(anchor)) broken.push(`${file}: ${target} (no such heading)`)
        }
      }
    }
    assert.deepEqual(broken, [])
    assert.isAbove(files.length, 10)
  })

  test('the code cites docs/ by file and heading, never a document outside the repository', async ({
    assert,
  }) => {
    const sources = glob(
      [
        '{app,bin,commands,config,database,providers,start,tests}/**/*.{ts,tsx}',
        'packages/*/src/**/*.ts',
        'resources/**/*.{ts,tsx,edge,css}',
      ],
      { cwd: app.makePath() }
    )
    const broken: string[] = []
    let citations = 0
    for await (const file of sources) {
      const text = await readFile(app.makePath(file), 'utf8')
      for (const [line, number] of text.split('\n').map((l, i) => [l, i + 1] as const)) {
        // The design notes' "§n" are not in the repository: a reader cannot follow them.
        if (/§\s*\d/.test(line)) broken.push(`${file}:${number}: cites a numbered section`)
        for (const [, doc, anchor] of line.matchAll(/\bdocs\/([\w-]+\.md)#([\w-]+)/g)) {
          citations++
          const path = app.makePath('docs', doc)
          if (!existsSync(path)) broken.push(`${file}:${number}: docs/${doc} (no such file)`)
          else if (!anchorsOf(await readFile(path, 'utf8')).has(anchor)) {
            broken.push(`${file}:${number}: docs/${doc}#${anchor} (no such heading)`)
          }
        }
      }
    }
    assert.deepEqual(broken, [])
    assert.isAbove(citations, 10)
  })
})
