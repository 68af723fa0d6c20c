import './item-page.scss';
import { type MouseEvent, useEffect, useRef, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { ItemDetail } from '../../../common/schemas/accounts.ts';
import { setupGuideTitle } from '../../../common/site.ts';
import { HtmlContent } from '../../components/html-content.tsx';
import { Icon } from '../../components/icon.tsx';
import { Loading } from '../../components/load-states.tsx';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { ApiError, apiPost } from '../../lib/api.ts';
import { useFreshQuery } from '../../lib/fresh-query.ts';
import { useTitleAndPageView } from '../../lib/page-view.ts';
import { useCurrentSection } from '../../lib/use-current-section.ts';
import { CloneInstructions } from './github-access.tsx';
import { KitChangelog } from './kit-changelog.tsx';
import { LicenceKeySection } from './licence-key-section.tsx';
import { LicenceText } from './licence-text.tsx';
import { SeatsSection } from './seats-section.tsx';

export const fetchItemDetail = (sefId: string) =>
  apiPost<ItemDetail>(`/api/item/${encodeURIComponent(sefId)}`, { details: true });

type ItemState =
  | { status: 'loading' }
  | { status: 'ready'; item: ItemDetail }
  /** 401 (signed out) or 403 (not owned): the page goes home (spec, sections 6 and 8). */
  | { status: 'refused' }
  | { status: 'not-found' }
  | { status: 'error' };

function stateOf(query: { isSuccess: boolean; isError: boolean; data?: ItemDetail; error: unknown }): ItemState {
  if (query.isSuccess && query.data) return { status: 'ready', item: query.data };
  if (!query.isError) return { status: 'loading' };
  const { error } = query;
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return { status: 'refused' };
  if (error instanceof ApiError && error.status === 404) return { status: 'not-found' };
  return { status: 'error' };
}

/** The guide, read afresh on every visit (and on retry). */
function useItemDetail(sefId: string): { state: ItemState; retry: () => void } {
  const { query, retry } = useFreshQuery(['item', sefId], () =>
    fetchItemDetail(sefId).catch((error: unknown) => {
      const expected = error instanceof ApiError && [401, 403, 404].includes(error.status);
      if (!expected) console.warn('Could not load the setup guide', error);
      throw error;
    }),
  );
  return { state: stateOf(query), retry };
}

/** The side menu's entries: two sections of the setup guide's HTML, then the page's own licence section. */
const GUIDE_LINKS = [
  { id: 'quick-start', label: 'Quick Start' },
  { id: 'how-to-modify', label: 'How to Modify' },
  { id: 'licence', label: 'Licence Agreement' },
] as const;
const GUIDE_IDS = GUIDE_LINKS.map((link) => link.id);

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Scrolls a section into view and moves the keyboard focus there (without a second jump). */
function showSection(target: HTMLElement, smooth: boolean) {
  target.scrollIntoView({ behavior: smooth && !prefersReducedMotion() ? 'smooth' : 'auto', block: 'start' });
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/** The side menu: on wide screens it stays beside the guide, on phones it sits above it. */
function GuideNav({ current }: { current: string | undefined }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    const target = document.getElementById(id);
    if (!target) return; // a guide without this section: let the browser do what it does
    event.preventDefault();
    showSection(target, true);
    // Keep the address in step (shareable), without a new history entry or a jump to the top.
    navigate({ hash: `#${id}` }, { replace: true, preventScrollReset: true });
  };
  return (
    <nav className="item-nav" aria-label="Guide">
      <p className="item-nav-title" aria-hidden="true">
        Guide
      </p>
      <ul className="list-unstyled">
        {GUIDE_LINKS.map((link) => (
          <li key={link.id}>
            <a
              href={`#${link.id}`}
              onClick={(event) => onClick(event, link.id)}
              className={current === link.id ? 'active' : undefined}
              aria-current={current === link.id ? 'location' : undefined}
            >
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The licence in brief, and the full text in a dialog (size lg, scrollable) that closes with `Close`. */
function LicenceSummary() {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <section id="licence" className="item-licence" aria-labelledby="licence-heading">
      <h2 id="licence-heading">Licence Agreement</h2>
      <p>Your purchase comes with the Kitshop licence. In short:</p>
      <ul className="item-licence-points list-unstyled">
        <li>
          <Icon name="check" size={18} /> For the original purchaser only.
        </li>
        <li>
          <Icon name="check" size={18} /> Unlimited personal, commercial or client projects.
        </li>
        <li>
          <Icon name="check" size={18} /> The finished products you build with the kit may be sold.
        </li>
        <li className="is-forbidden">
          <Icon name="lock" size={18} /> Redistributing the kit itself, as is or modified, is forbidden.
        </li>
      </ul>
      <button type="button" className="btn btn-outline-primary" onClick={() => setOpen(true)} aria-haspopup="dialog">
        View Full Licence
      </button>
      <Modal show={open} onHide={close} size="lg" scrollable aria-labelledby="licence-dialog-title">
        <Modal.Header>
          <Modal.Title id="licence-dialog-title" as="h2" className="h5">
            Licence Agreement
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <LicenceText />
        </Modal.Body>
        <Modal.Footer>
          <Link to="/licence" className="me-auto">
            Open as a page
          </Link>
          <button type="button" className="btn btn-primary" onClick={close}>
            Close
          </button>
        </Modal.Footer>
      </Modal>
    </section>
  );
}

/**
 * /user-panel/item/:sefId: a purchased kit's setup guide. Title and spot, a side menu (Quick Start,
 * How to Modify, Licence Agreement), the guide, then the licence summary with the full text in a
 * dialog. Signed out (401) or not the owner (403): home. Unknown kit (404): the not-found page.
 */
export function ItemPage() {
  const { sefId = '' } = useParams();
  const navigate = useNavigate();
  const { hash } = useLocation();
  const { state, retry } = useItemDetail(sefId);
  const ready = state.status === 'ready';
  const current = useCurrentSection(GUIDE_IDS, ready);
  useTitleAndPageView(ready ? setupGuideTitle(state.item.title) : undefined);

  useEffect(() => {
    if (state.status === 'refused') navigate('/', { replace: true });
  }, [state.status, navigate]);

  // Opened at `#how-to-modify` (a shared link): show that section once the guide is there.
  const initialHash = useRef(hash);
  useEffect(() => {
    if (!ready || !initialHash.current) return;
    const id = initialHash.current.slice(1);
    initialHash.current = '';
    const target = id && document.getElementById(id);
    if (target) showSection(target, false);
  }, [ready]);

  if (state.status === 'not-found') return <NotFoundPage />;
  if (state.status === 'refused') return null;
  if (state.status === 'loading') {
    return (
      <div className="container section">
        <Loading className="item-loading">Loading the setup guide…</Loading>
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="container section">
        <div className="alert alert-warning" role="alert">
          <p>We could not load this setup guide right now. Please try again in a moment.</p>
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-primary btn-sm" onClick={retry}>
              Try Again
            </button>
            <Link to="/user-panel" className="btn btn-outline-secondary btn-sm">
              Back to User Panel
            </Link>
          </div>
        </div>
      </div>
    );
  }

  const { item } = state;
  return (
    <div className="item-page">
      <header className="item-hero">
        <div className="container">
          <Link to="/user-panel" className="item-back">
            <span aria-hidden="true">←</span> Back to User Panel
          </Link>
          <p className="eyebrow">Setup Guide</p>
          <h1 className="item-title">{item.title}</h1>
          <p className="item-spot">{item.spot}</p>
        </div>
      </header>
      <div className="container item-body">
        <div className="row g-4 g-lg-5">
          <aside className="col-12 col-lg-3">
            <GuideNav current={current} />
          </aside>
          <div className="col-12 col-lg-9">
            {item.repository && <CloneInstructions repository={item.repository} sefId={sefId} />}
            <LicenceKeySection sefId={sefId} />
            <SeatsSection sefId={sefId} />
            <HtmlContent html={item.setup} className="prose item-setup" />
            <KitChangelog sefId={sefId} />
            <LicenceSummary />
          </div>
        </div>
      </div>
    </div>
  );
}
