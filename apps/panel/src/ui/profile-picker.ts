import { el } from '@raspa/browser-kit';
import type { Profile } from '@raspa/server/wire';
import { field, select } from './blocks.ts';
import type { PageContext } from './context.ts';
import type { Feedback } from './feedback.ts';

/**
 * The profile a page looks at: a select of the client's profiles (the first 100), remembered in the
 * address as `profileId`. `optional` adds "any profile" (the ledger lists take no profile).
 */
export async function profilePicker(
  context: PageContext,
  feedback: Feedback,
  options: { optional?: boolean } = {},
): Promise<{ node: HTMLElement; control: HTMLSelectElement; profiles: Profile[] } | undefined> {
  const { t } = context;
  const page = await feedback.run(t.common.loading, () => context.api.listProfiles({ pageSize: 100 }));
  if (!page) return undefined;
  const profiles = page.items;
  const choices: Array<readonly [string, string]> = profiles.map((profile) => [
    profile.profileId,
    profile.name,
  ]);
  if (options.optional) choices.unshift(['', t.common.any]);
  const wanted = context.query.get('profileId') ?? '';
  const initial = profiles.some((profile) => profile.profileId === wanted)
    ? wanted
    : options.optional
      ? ''
      : (profiles[0]?.profileId ?? '');
  const control = select('profileId', choices, initial);
  const node = profiles.length
    ? field(t.common.profile, control)
    : el('p', { class: 'empty' }, [t.common.noProfiles]);
  return { node, control, profiles };
}
