from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The signed-in player's own profile: account details and links to manage them."""
    return render(request, "accounts/profile.html", {"profile_user": request.user})
