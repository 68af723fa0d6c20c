import { describe, expect, it } from 'vitest';
import { memoryStorage, refusingStorage } from '../../lib/storage-doubles.ts';
import { CHECKOUT_KEY, parseSnapshot, purchaseEventParams, saveSnapshot, takeSnapshot } from './order-snapshot.ts';

describe('checkout snapshot', () => {
  it("stores {order_id, total} under 'checkout' and hands it out once", () => {
    const { storage, data } = memoryStorage();
    saveSnapshot({ order_id: 'ord_1', total: 78.5 }, storage);
    expect(JSON.parse(data.get(CHECKOUT_KEY)!)).toEqual({ order_id: 'ord_1', total: 78.5 });
    expect(takeSnapshot(storage)).toEqual({ order_id: 'ord_1', total: 78.5 });
    expect(data.has(CHECKOUT_KEY)).toBe(false);
    expect(takeSnapshot(storage)).toBeNull();
  });

  it.each([
    ['nothing', null],
    ['garbage', '{nope'],
    ['no order id', '{"total":49}'],
    ['an empty order id', '{"order_id":"","total":49}'],
    ['no total', '{"order_id":"ord_1"}'],
    ['a non-numeric total', '{"order_id":"ord_1","total":"lots"}'],
    ['an array', '[1,2]'],
  ])('ignores %s', (_label, raw) => {
    expect(parseSnapshot(raw)).toBeNull();
  });

  it('keeps valid analytics items and drops broken ones', () => {
    const raw = JSON.stringify({
      order_id: 'ord_2',
      total: 49,
      items: [{ item_id: '3', item_name: 'Next Kit', price: 49, quantity: 1 }, { item_id: 4 }, null],
    });
    expect(parseSnapshot(raw)).toEqual({
      order_id: 'ord_2',
      total: 49,
      items: [{ item_id: '3', item_name: 'Next Kit', price: 49, quantity: 1 }],
    });
  });

  it('builds the purchase event: transaction id, value, USD, tax half the total, numbers as numbers', () => {
    const items = [{ item_id: '3', item_name: 'Next Kit', price: 49.5, quantity: 1 }];
    expect(purchaseEventParams({ order_id: 'ord_3', total: 49.5, items })).toEqual({
      transaction_id: 'ord_3',
      value: 49.5,
      currency: 'USD',
      tax: 24.75,
      items,
    });
    expect(purchaseEventParams({ order_id: 'ord_4', total: 98 })).toMatchObject({ value: 98, tax: 49, items: [] });
  });

  it('treats a storage that refuses access as empty', () => {
    const refusing = refusingStorage;
    expect(() => saveSnapshot({ order_id: 'x', total: 1 }, refusing)).not.toThrow();
    expect(takeSnapshot(refusing)).toBeNull();
  });
});
