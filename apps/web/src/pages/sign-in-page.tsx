import { useState, type FormEvent } from 'react';
import { logIn, messageOf } from '../api/client';

/** Username and password for a token (`POST /api-auth/password/`). */
export function SignInPage({
  onToken,
  error,
}: {
  onToken: (token: string) => Promise<void>;
  error?: string;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await onToken(await logIn(username, password));
    } catch (refused) {
      setFailure(messageOf(refused));
      setBusy(false);
    }
  };

  const message = failure ?? error;
  return (
    <main className="sign-in">
      <h1>vSphere marketplace</h1>
      <form onSubmit={(event) => void submit(event)} aria-describedby={message ? 'sign-in-error' : undefined}>
        <h2>Sign in</h2>
        <label htmlFor="username">Username</label>
        <input
          id="username"
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
        <label htmlFor="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        {message && (
          <p id="sign-in-error" className="error" role="alert">
            {message}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
