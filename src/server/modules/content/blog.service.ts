import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DAY } from '../../../common/dates.ts';
import { renderMarkdown } from '../../lib/html.ts';

export type BlogPost = { slug: string; title: string; date: string; excerpt: string; html: string };

const FILE = /^(\d{4}-\d{2}-\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** A Markdown file's `---` block of `key: value` lines, and the text after it. */
export function frontMatter(source: string, file: string): { meta: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(source);
  if (!match) throw new Error(`${file}: needs a front matter block between --- lines`);
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split(/\r?\n/)) {
    const kv = /^(\w+):\s*(.*)$/.exec(line);
    if (kv) meta[kv[1]!] = kv[2]!.replace(/^"(.*)"$/, '$1').trim();
  }
  return { meta, body: match[2]! };
}

/** The posts under `<dir>/*.md` (`YYYY-MM-DD-slug.md` with title, date, excerpt), newest first. */
export function loadBlog(dir: string): BlogPost[] {
  if (!existsSync(dir)) return [];
  const posts: BlogPost[] = [];
  for (const file of readdirSync(dir).sort()) {
    const name = FILE.exec(file);
    if (!name) continue;
    const { meta, body } = frontMatter(readFileSync(path.join(dir, file), 'utf8'), file);
    if (!meta.title || !meta.excerpt) throw new Error(`${file}: front matter needs title and excerpt`);
    const date = meta.date ?? name[1]!;
    if (!DAY.test(date) || Number.isNaN(Date.parse(date))) throw new Error(`${file}: date must be a day, YYYY-MM-DD`);
    posts.push({
      slug: name[2]!,
      title: meta.title,
      date,
      excerpt: meta.excerpt,
      html: renderMarkdown(body),
    });
  }
  return posts.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}
