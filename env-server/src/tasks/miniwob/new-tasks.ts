import type { MiniwobTaskSpec } from './define-task.js';
import { bookFlight } from './book-flight/index.js';
import { chooseDate } from './choose-date/index.js';
import { chooseList } from './choose-list/index.js';
import { clickCheckboxes } from './click-checkboxes/index.js';
import { clickCollapsible } from './click-collapsible/index.js';
import { clickDialog } from './click-dialog/index.js';
import { clickOption } from './click-option/index.js';
import { clickTab } from './click-tab/index.js';
import { emailInbox } from './email-inbox/index.js';
import { enterPassword } from './enter-password/index.js';
import { enterTextDynamic } from './enter-text-dynamic/index.js';
import { focusText } from './focus-text/index.js';
import { navigateTree } from './navigate-tree/index.js';
import { searchEngine } from './search-engine/index.js';
import { useAutocomplete } from './use-autocomplete/index.js';

/** The one-folder tasks, in the order the docs list them. */
export const folderTasks: MiniwobTaskSpec[] = [
  chooseList,
  clickCheckboxes,
  clickOption,
  clickTab,
  clickCollapsible,
  clickDialog,
  enterPassword,
  enterTextDynamic,
  focusText,
  useAutocomplete,
  chooseDate,
  navigateTree,
  searchEngine,
  emailInbox,
  bookFlight,
];
