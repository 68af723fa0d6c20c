/** Titles and descriptions shared by the server's page shell (SEO) and the app (document.title). */
export const SITE_NAME = 'Kitshop';
export const HOME_TITLE = 'Kitshop — Production-ready starter kits for developers';
export const HOME_DESCRIPTION =
  'Kitshop sells downloadable starter kits for developers: full source code with a polished UI, documentation, setup guides and a live demo. Ship your next product in days, not months.';
export const NOT_FOUND_TITLE = 'Page Not Found — Kitshop';

export const docsTitle = (kitTitle: string) => `${kitTitle} Documentation — Kitshop`;
/** A purchased kit's setup guide (/user-panel/item/:sefId) once its title is known. */
export const setupGuideTitle = (kitTitle: string) => `${kitTitle} — Setup Guide — Kitshop`;
