import { formatPrice } from '../../../common/money.ts';

/** What a kit costs this visitor: the price, and the price it replaces (a code, an upgrade, a sale). */
export type ShownPrice = { price: number; was: number | null };

/**
 * The price, and the one it replaces struck through: a screen reader hears "was $X" (a
 * strike-through alone is only seen); the `<del>` itself holds just the old price.
 */
export function KitPrice({ shown, testId, oldTestId }: { shown: ShownPrice; testId?: string; oldTestId?: string }) {
  return (
    <>
      <span className="price" data-testid={testId}>
        {formatPrice(shown.price)}
      </span>
      {shown.was !== null && shown.was > shown.price && (
        <>
          <span className="visually-hidden"> was </span>
          <del className="old-price" data-testid={oldTestId}>
            {formatPrice(shown.was)}
          </del>
        </>
      )}
    </>
  );
}
