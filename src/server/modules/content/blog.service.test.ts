import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../../../../tests/setup/test-app.ts';
import { longDate } from '../../../common/dates.ts';
import { loadBlog } from './blog.service.ts';

describe('the demo blog', () => {
  it('holds at least 3 posts, newest first, with short excerpts and sanitised bodies', () => {
    const posts = loadBlog(path.join(DEMO_CATALOG, 'blog'));
    expect(posts.length).toBeGreaterThanOrEqual(3);
    expect(posts.map((p) => p.date)).toEqual([...posts.map((p) => p.date)].sort().reverse());
    for (const post of posts) {
      expect(post.excerpt.length).toBeLessThanOrEqual(240);
      expect(post.html.length).toBeGreaterThan(2000);
      expect(post.html).not.toMatch(/<script|onerror=|javascript:/i);
    }
  });

  it('writes dates out in full', () => {
    expect(longDate('2025-07-01')).toBe('1 July 2025');
  });
});

describe('loadBlog', () => {
  it('refuses a post whose date is not a day', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'kitshop-blog-'));
    try {
      writeFileSync(
        path.join(dir, '2025-01-02-a-post.md'),
        '---\ntitle: A post\nexcerpt: Short.\ndate: "soon"\n---\nBody.\n',
      );
      expect(() => loadBlog(dir)).toThrow('2025-01-02-a-post.md: date must be a day, YYYY-MM-DD');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
