create table public.habits (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references auth.users on delete cascade,
  title text not null check (char_length(title) between 1 and 60),
  emoji text not null default '✅',
  remind_at time,
  created_at timestamptz not null default now()
);
create index habits_user_id on public.habits (user_id);

create table public.checkins (
  habit_id uuid not null references public.habits on delete cascade,
  day date not null,
  primary key (habit_id, day)
);

create table public.push_tokens (
  token text primary key,
  user_id uuid not null default auth.uid() references auth.users on delete cascade,
  platform text not null check (platform in ('ios', 'android')),
  updated_at timestamptz not null default now()
);

alter table public.habits enable row level security;
alter table public.checkins enable row level security;
alter table public.push_tokens enable row level security;

create policy "own habits" on public.habits
  for all using (user_id = auth.uid()) with check (user_id = auth.uid());

create policy "own checkins" on public.checkins
  for all using (exists (select 1 from public.habits h where h.id = habit_id and h.user_id = auth.uid()))
  with check (exists (select 1 from public.habits h where h.id = habit_id and h.user_id = auth.uid()));

create policy "own push tokens" on public.push_tokens
  for all using (user_id = auth.uid()) with check (user_id = auth.uid());

-- Free plan limit is enforced in the app; enforce it here too if you sell Pro seriously:
-- a trigger can count habits and consult a `pro_until` column updated by a RevenueCat webhook.
