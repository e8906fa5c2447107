import { API_PATHS } from '@app/contracts/http/api-paths';
import { useState } from 'react';
import type { Offering } from '../api/types';
import { Failure, Loading, StateBadge } from '../components/status';
import { useLoad } from '../components/use-load';
import { Link } from '../router';
import { useSession } from '../session';

/** The public offerings: searched by name, filtered by type, each with its plans and prices. */
export function CataloguePage() {
  const { api } = useSession();
  const offerings = useLoad('offerings', (signal) =>
    api.get<Offering[]>(`${API_PATHS.publicOfferings}?page_size=200`, signal),
  );
  const [search, setSearch] = useState('');
  const [type, setType] = useState('');
  const all = offerings.data ?? [];
  const types = [...new Set(all.map((o) => o.type))].sort();
  const shown = all.filter(
    (o) => (type === '' || o.type === type) && o.name.toLowerCase().includes(search.trim().toLowerCase()),
  );
  return (
    <section aria-labelledby="catalogue-title">
      <h1 id="catalogue-title">Offerings</h1>
      <div className="filters" role="search">
        <label>
          Search
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
        <label>
          Type
          <select value={type} onChange={(event) => setType(event.target.value)}>
            <option value="">All types</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Failure message={offerings.error} />
      {!offerings.data && !offerings.error && <Loading what="the offerings" />}
      {offerings.data && shown.length === 0 && <p>No offering matches.</p>}
      <ul className="cards">
        {shown.map((offering) => (
          <li key={offering.uuid} className="card">
            <h2>{offering.name}</h2>
            <p className="meta">
              {offering.type} · {offering.customer_name} <StateBadge state={offering.state} />
            </p>
            {offering.description && <p>{offering.description}</p>}
            {offering.plans
              .filter((plan) => !plan.archived)
              .map((plan) => (
                <div key={plan.uuid} className="plan">
                  <h3>{plan.name} plan</h3>
                  <ul className="prices">
                    {offering.components.map((c) => (
                      <li key={c.type}>
                        {c.name}: {plan.prices[c.type] ?? '0'} per {c.measured_unit} a month
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            <Link href={`/order/${offering.uuid}`} className="button" aria-label={`Order ${offering.name}`}>
              Order
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
