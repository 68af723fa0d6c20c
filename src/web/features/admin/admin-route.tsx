import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '../../app/session.ts';
import { NotFoundPage } from '../../components/not-found-page.tsx';
import { setReturnPath } from '../../lib/return-path.ts';

// The console's code and styles load only for an owner.
const Console = lazy(() => import('./console.tsx'));

/**
 * `/admin/*`: the owner console. Signed out, the visitor signs in and comes back here; a signed-in
 * customer who is not an owner gets the ordinary not-found page (the server answers 404 too), so
 * the console does not reveal that it exists. The server checks ownership on every call anyway.
 * Its own chunk (the router's entry is an import and nothing more): the buyer's first load must not
 * grow for a screen that buyers never see.
 */
export function AdminRoute() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    if (user) return;
    setReturnPath(pathname.replace(/^\/+|\/+$/g, '') || 'admin');
    navigate('/login', { replace: true });
  }, [user, navigate, pathname]);

  if (!user) return null;
  if (!user.owner) return <NotFoundPage />;
  return (
    <Suspense fallback={null}>
      <Console />
    </Suspense>
  );
}
