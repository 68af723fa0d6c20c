import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG } from '../../../../tests/setup/test-app.ts';
import { loadBlog, longDate } from './blog.service.ts';

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
