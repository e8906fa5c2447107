import type { ReactNode } from 'react';
import { Link, usePath } from '../router';
import { useSession } from '../session';
import { StreamIndicator } from './stream-indicator';

const NAV = [
  { href: '/', label: 'Catalogue' },
  { href: '/orders', label: 'Orders' },
  { href: '/resources', label: 'Resources' },
  { href: '/vms', label: 'Virtual machines' },
  { href: '/provider/offerings', label: 'Your offerings' },
  { href: '/provider/orders', label: 'Provider orders' },
];

/** The header (navigation, project switcher, live indicator, sign out) around every page. */
export function Layout({ children }: { children: ReactNode }) {
  const { user, projects, project, selectProject, signOut } = useSession();
  const path = usePath();
  const current = (href: string) =>
    href === '/' ? path === '/' || path.startsWith('/order/') : path.startsWith(href);
  return (
    <>
      <header className="top">
        <Link href="/" className="brand">
          vSphere marketplace
        </Link>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={current(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
            {project && (
              <li>
                <Link
                  href={`/projects/${project.uuid}`}
                  aria-current={path.startsWith('/projects/') ? 'page' : undefined}
                >
                  Project quotas
                </Link>
              </li>
            )}
          </ul>
        </nav>
        <div className="session">
          <label htmlFor="project-switcher">Project</label>
          <select
            id="project-switcher"
            value={project?.uuid ?? ''}
            onChange={(event) => selectProject(event.target.value)}
          >
            {projects.length === 0 && <option value="">No project</option>}
            {projects.map((p) => (
              <option key={p.uuid} value={p.uuid}>
                {p.customer_name} / {p.name}
              </option>
            ))}
          </select>
          <StreamIndicator />
          <span className="user">{user.username}</span>
          <button type="button" className="secondary" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main className="page">{children}</main>
    </>
  );
}
