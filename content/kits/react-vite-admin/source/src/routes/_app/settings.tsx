import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';

const profileSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(80),
  email: z.string().email('Enter a valid email address'),
});

type Theme = 'system' | 'light' | 'dark';

export const Route = createFileRoute('/_app/settings')({
  component: SettingsPage,
});

function applyTheme(theme: Theme) {
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  localStorage.setItem('admin.theme', theme);
}

function SettingsPage() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem('admin.theme') as Theme | null) ?? 'system');

  function save(form: FormData) {
    const result = profileSchema.safeParse(Object.fromEntries(form));
    setErrors(result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message])));
    // Send result.data to your API here, e.g. apiFetch('/me', { method: 'PATCH', body: JSON.stringify(result.data) })
  }

  return (
    <div className="max-w-2xl space-y-8">
      <h1 className="text-2xl font-semibold">Settings</h1>
      <form action={save} className="space-y-4 rounded-card bg-white p-6 shadow-sm">
        <h2 className="font-medium">Profile</h2>
        <label className="block text-sm">
          Name
          <input name="name" className="input mt-1" defaultValue="Olivia Chen" />
          {errors.name && <span className="text-xs text-rose-600">{errors.name}</span>}
        </label>
        <label className="block text-sm">
          Email
          <input name="email" type="email" className="input mt-1" defaultValue="olivia@example.com" />
          {errors.email && <span className="text-xs text-rose-600">{errors.email}</span>}
        </label>
        <button type="submit" className="rounded-lg bg-accent px-4 py-2 text-sm text-white">
          Save profile
        </button>
      </form>
      <fieldset className="rounded-card bg-white p-6 shadow-sm">
        <legend className="font-medium">Theme</legend>
        {(['system', 'light', 'dark'] as const).map((value) => (
          <label key={value} className="mr-6 text-sm capitalize">
            <input
              type="radio"
              name="theme"
              checked={theme === value}
              onChange={() => {
                setTheme(value);
                applyTheme(value);
              }}
            />{' '}
            {value}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
