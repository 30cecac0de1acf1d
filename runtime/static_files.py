"""WhiteNoise's static files middleware, able to sit in an async middleware chain.

Under ASGI a single synchronous middleware makes Django run everything below it, async views included, inside a
thread that stays taken for the whole request: a waiting long-poll would hold a thread again. WhiteNoise's
middleware is synchronous only; this one answers a static file in a thread, as WhiteNoise would, and passes any
other request on without leaving the event loop.
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, settings=None):
        if settings is None:
            super().__init__(get_response)
        else:
            super().__init__(get_response, settings=settings)
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def _static_file(self, request):
        # With autorefresh (DEBUG) WhiteNoise looks on disk each time; otherwise it is a dict lookup.
        return self.find_file(request.path_info) if self.autorefresh else self.files.get(request.path_info)

    def __call__(self, request):
        if self._async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        if self.autorefresh:
            static_file = await sync_to_async(self._static_file, thread_sensitive=False)(request)
        else:
            static_file = self._static_file(request)
        if static_file is not None:
            return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        return await self.get_response(request)
