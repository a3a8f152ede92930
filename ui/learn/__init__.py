"""The Learn page's sections: one module per group of lessons (roofline, mfu, diagnosis,
decode), the answer fields (answer), the session and URL state (state), the page frame
(page) and the "why? → lesson" link the other pages use (link).

`LESSONS[n]` is lesson n's (render, worked) pair: render(t, problem, chart_config) draws
the task and its answer fields, worked(t, problem) returns the solution for these numbers.
"""
