// The watch's alert messages are delivery messages: @orgreport/watch mirrors the shape of
// @orgreport/deliver's DeliveryMessage rather than depending on it; this checks they agree (tsc --noEmit).
import type { DeliveryMessage } from '@orgreport/deliver';
import { alertMessage } from '@orgreport/watch';
import { expectTypeOf } from 'vitest';

expectTypeOf(alertMessage).returns.toMatchTypeOf<DeliveryMessage>();
