import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DISCOUNT_CODE_PATTERN } from '../../common/constants.ts';
import { DISCOUNT_CODE_KEY } from './cart/discount-code.ts';
import { RETURN_PATH_KEY } from './return-path.ts';

// boot.js is served as it is (no build step, no imports): what it shares with the app is spelled
// there again, and kept in step here.
const boot = readFileSync(new URL('../public/boot.js', import.meta.url), 'utf8');

describe('boot.js', () => {
  it("remembers a sale link's code under the app's key and with the app's rule", () => {
    expect(boot).toContain(`localStorage.setItem('${DISCOUNT_CODE_KEY}', code)`);
    expect(boot).toContain(`/${DISCOUNT_CODE_PATTERN.source}/.test(code)`);
  });

  it("reads the return path from the app's key", () => {
    expect(boot).toContain(`localStorage.getItem('${RETURN_PATH_KEY}')`);
  });
});
