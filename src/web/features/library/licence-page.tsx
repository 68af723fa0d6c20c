// The static pages' frame (heading band, effective date, table of contents): the licence is one of them.
import { LegalLayout } from '../../components/legal-layout.tsx';
import { useScreenTitleAndPageView } from '../../lib/page-view.ts';
import { LICENCE_SECTIONS } from './licence-text.tsx';

/** /licence: the full licence every kit is sold under, the same text as the item page's dialog. */
export function LicencePage() {
  useScreenTitleAndPageView('/licence');
  return (
    <LegalLayout
      title="Licence Agreement"
      lead={
        <p>
          The licence every Kitshop kit is sold under: one purchaser, unlimited personal, commercial or client projects,
          and finished products you may sell. Only the kit itself may not be passed on.
        </p>
      }
      sections={LICENCE_SECTIONS}
    />
  );
}
