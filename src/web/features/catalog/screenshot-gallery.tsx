import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { SCREENSHOT_FULL, SCREENSHOT_THUMB } from '../../../common/hero-image.ts';
import type { KitProduct } from '../../../common/schemas/catalog.ts';
import { Icon } from '../../components/icon.tsx';
import { balancedColumns } from '../../lib/balanced-grid.ts';
import { appUrl } from '../../lib/initial-data.ts';

type Screenshot = KitProduct['details']['screenshots'][number];

/** The two sizes the screenshots are made in (scripts/screenshots), and how each is shown. */
const THUMBNAIL = { ...SCREENSHOT_THUMB, loading: 'lazy', decoding: 'async' } as const;
const ENLARGED = { ...SCREENSHOT_FULL, className: 'img-fluid d-block mx-auto' } as const;

/** The grid of screenshots; a click enlarges one in a centred xl dialog (300 ms, backdrop 150 ms). */
export function ScreenshotGallery({ screenshots }: { screenshots: Screenshot[] }) {
  const [open, setOpen] = useState<Screenshot | null>(null);
  return (
    <>
      <div className="row g-3 screenshots">
        {screenshots.map((shot, i) => (
          <div className={balancedColumns(i, screenshots.length, { sm: 2, lg: 3 })} key={shot.url}>
            <button
              type="button"
              className="screenshot-thumb"
              onClick={() => setOpen(shot)}
              aria-label={`Enlarge ${shot.title}`}
            >
              <img src={appUrl(shot.thumbnail_url)} alt={shot.alt} {...THUMBNAIL} />
              <span className="screenshot-zoom" aria-hidden="true">
                <Icon name="zoom" size={20} />
              </span>
            </button>
            <p className="screenshot-title">{shot.title}</p>
          </div>
        ))}
      </div>
      <Modal show={open !== null} onHide={() => setOpen(null)} size="xl" centered aria-labelledby="screenshot-title">
        {open && (
          <>
            <Modal.Header closeButton closeLabel="Close">
              <Modal.Title id="screenshot-title" as="h2" className="h5">
                {open.title}
              </Modal.Title>
            </Modal.Header>
            <Modal.Body className="p-0">
              <img src={appUrl(open.url)} alt={open.alt} {...ENLARGED} />
            </Modal.Body>
          </>
        )}
      </Modal>
    </>
  );
}
