"""The frozen dev slice of ED valid that the lite writer is measured on and never tuned on (docs/lite_replies.md):
the last DEV_CONVERSATIONS conversations in file (conv_id) order, written down before issue 20's tuning."""
DEV_CONVERSATIONS = 300
