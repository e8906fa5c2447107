import { API_PATHS } from '@app/contracts/http/api-paths';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { ApiClient, messageOf } from './api/client';
import type { Project, User } from './api/types';
import { Layout } from './components/layout';
import { CataloguePage } from './pages/catalogue-page';
import { OrderFormPage } from './pages/order-form-page';
import { OrderPage } from './pages/order-page';
import { OrdersPage } from './pages/orders-page';
import { ProjectPage } from './pages/project-page';
import { ProviderOrdersPage } from './pages/provider-orders-page';
import { ResourcesPage } from './pages/resources-page';
import { SignInPage } from './pages/sign-in-page';
import { VmPage } from './pages/vm-page';
import { VmsPage } from './pages/vms-page';
import { match, usePath, WEB_PATHS } from './router';
import { SessionProvider, tokenStore } from './session';

// Few users provide offerings: their pages load on first visit and stay out of the first page's bundle.
const ProviderOfferingsPage = lazy(() => import('./pages/provider/provider-offerings-page'));
const ProviderOfferingPage = lazy(() => import('./pages/provider/provider-offering-page'));

interface Signed {
  token: string;
  user: User;
  projects: Project[];
}

/** Signs in (or resumes the tab's token), then shows the page the path names. */
export function App() {
  const [signed, setSigned] = useState<Signed | undefined>();
  const [loading, setLoading] = useState(() => tokenStore.read() !== null);
  const [error, setError] = useState<string | undefined>();

  const signOut = useCallback(() => {
    tokenStore.clear();
    setSigned(undefined);
  }, []);

  const start = useCallback(async (token: string) => {
    const api = new ApiClient(token, () => undefined);
    try {
      const user = await api.get<User>(API_PATHS.usersMe);
      const projects = await api.get<Project[]>(`${API_PATHS.projects}?page_size=200`);
      tokenStore.write(token);
      setSigned({ token, user, projects });
      setError(undefined);
    } catch (failure) {
      tokenStore.clear();
      setError(messageOf(failure));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    const token = tokenStore.read();
    if (token) void start(token);
  }, [start]);

  if (loading) return <p className="loading">Loading…</p>;
  if (!signed) return <SignInPage onToken={start} error={error} />;
  return (
    <SessionProvider key={signed.token} {...signed} onSignOut={signOut}>
      <Layout>
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Routes />
        </Suspense>
      </Layout>
    </SessionProvider>
  );
}

function Routes() {
  const path = usePath();
  let params: Record<string, string> | undefined;
  if ((params = match(WEB_PATHS.orderForm, path))) return <OrderFormPage offeringUuid={params.offering} />;
  if ((params = match(WEB_PATHS.order, path))) return <OrderPage uuid={params.uuid} />;
  if (match(WEB_PATHS.orders, path)) return <OrdersPage />;
  if (match(WEB_PATHS.resources, path)) return <ResourcesPage />;
  if ((params = match(WEB_PATHS.vm, path))) return <VmPage uuid={params.uuid} />;
  if ((params = match(WEB_PATHS.project, path))) return <ProjectPage uuid={params.uuid} />;
  if (match(WEB_PATHS.vms, path)) return <VmsPage />;
  if (match(WEB_PATHS.providerOrders, path)) return <ProviderOrdersPage />;
  if ((params = match(WEB_PATHS.providerOffering, path))) return <ProviderOfferingPage uuid={params.uuid} />;
  if (match(WEB_PATHS.providerOfferings, path)) return <ProviderOfferingsPage />;
  return <CataloguePage />;
}
