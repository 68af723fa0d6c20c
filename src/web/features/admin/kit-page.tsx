import { useLocation } from 'react-router';
import { recordId } from './format.ts';
import { KitVersions } from './kit-versions.tsx';
import { useKitVersions } from './kit-versions-api.ts';
import { PageHeader } from './ui.tsx';

/** `/admin/kits/{sef_id}`: the kit's title and its versions (the kit editor joins this page). */
export default function KitPage() {
  const sefId = recordId(useLocation().pathname);
  const versions = useKitVersions(sefId);
  return (
    <>
      <PageHeader title={versions.data?.kit.title ?? sefId} />
      <KitVersions sefId={sefId} />
    </>
  );
}
